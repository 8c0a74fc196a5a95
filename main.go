// Command storefront serves the Storefront API. See README.md.
package main

import (
	"fmt"
	"os"
)

var version = "dev"

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fmt.Println("storefront", version)
	return 0
}
