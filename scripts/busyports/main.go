// Command busyports holds TCP ports on every address while it runs a
// command, to show that the command (make test) binds none of them: every
// server the suite starts must take a free port of the OS's choosing.
//
//	go run ./scripts/busyports [-ports 8080,5432,12111,12112] -- make test
//
// A port something else already holds is busy anyway and is reported as
// such. It exits with the command's status.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
)

func main() {
	ports := flag.String("ports", "8080,5432,12111,12112", "comma-separated ports to hold")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: busyports [-ports LIST] -- COMMAND [ARGS...]")
		os.Exit(2)
	}
	for _, p := range strings.Split(*ports, ",") {
		ln, err := net.Listen("tcp", ":"+strings.TrimSpace(p))
		if err != nil {
			fmt.Fprintf(os.Stderr, "busyports: %s already busy (%v)\n", p, err)
			continue
		}
		defer ln.Close()
		fmt.Fprintf(os.Stderr, "busyports: holding %s\n", ln.Addr())
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "busyports:", err)
		os.Exit(1)
	}
}
