package main

import (
	"fmt"
	"net"
	"net/http"
	"time"
)

// healthCmd is `storefront healthcheck [--config FILE]`: GET /healthz of the
// server that the same configuration describes (http.addr; an unspecified
// host such as 0.0.0.0 is asked on the loopback). Exit 0 when it answers 200,
// 1 otherwise. The container image has no shell or curl: its HEALTHCHECK runs this.
func healthCmd(args []string, e env) int {
	cfg, rest, code := loadConfig("healthcheck", args, e)
	if code != 0 {
		return code
	}
	if len(rest) != 0 {
		fmt.Fprintf(e.stderr, "storefront healthcheck: no arguments expected\n\n%s", usage)
		return 2
	}
	host, port, err := net.SplitHostPort(cfg.HTTP.Addr)
	if err != nil {
		fmt.Fprintln(e.stderr, "storefront healthcheck: http.addr:", err)
		return 1
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	url := "http://" + net.JoinHostPort(host, port) + "/healthz"
	client := &http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		fmt.Fprintln(e.stderr, "storefront healthcheck:", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(e.stderr, "storefront healthcheck: %s answered %d\n", url, resp.StatusCode)
		return 1
	}
	fmt.Fprintln(e.stdout, "ok", url)
	return 0
}
