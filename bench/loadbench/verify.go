package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"storefront/app"
	"storefront/bench"
)

// sandboxSecret is the binary's payments.wallet_a.secret in the load run, so
// that the bench can sign the sandbox's returns as the pay page does.
const sandboxSecret = "bench-sandbox-secret-a"

// verifyScript places n guest checkouts on srv (64 at a time), signs each
// session's successful sandbox return and writes a wrk script for threads
// wrk threads that verifies them in turn, each once: thread k of the run
// takes the sessions start+k, start+k+threads, ... (each thread has its own
// Lua state, so they must not share a sequence), and the position after the
// thread that went furthest is carried in a file from one wrk run to the
// next (the warm-up and every round), so no session is verified twice unless
// the runs ask for more than n (verifyReused says).
func verifyScript(ctx context.Context, dir string, srv *server, ck *bench.Checkout, n, threads int) (string, error) {
	bodies := make([][]byte, n)
	g := &app.SandboxGateway{Code: app.WalletA, Secret: []byte(sandboxSecret)}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	client := &http.Client{}
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n && ctx.Err() == nil; i = int(next.Add(1)) - 1 {
				id, err := initiate(ctx, client, srv, ck, "verify-"+strconv.Itoa(i))
				if err != nil {
					errs <- err
					return
				}
				params := map[string]string{}
				for k, v := range g.Params(&app.PaymentSession{ID: id, Amount: ck.Amount}, app.OutcomeSuccess, "tx_"+id) {
					params[k] = v[0]
				}
				bodies[i], _ = json.Marshal(map[string]any{"payment_session_id": id, "provider_params": params})
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return "", err
	}
	data := filepath.Join(dir, "verify.bodies")
	if err := os.WriteFile(data, append(bytes.Join(bodies, []byte("\n")), '\n'), 0o600); err != nil {
		return "", err
	}
	script := fmt.Sprintf(`wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Service-Key"] = %s
bodies = {}
start, n, id = 0, 0, 0
local stride = %d
local offsets = %s
local threads = {}
function setup(thread)
  if #threads >= stride then error("the verify script was written for " .. stride .. " wrk threads") end
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  for line in io.lines(%s) do bodies[#bodies + 1] = line end
  local f = io.open(offsets, "r")
  if f then start = tonumber(f:read("*l")) or 0; f:close() end
end
function request()
  local i = (start + n * stride + id) %% #bodies + 1
  n = n + 1
  return wrk.format(nil, nil, nil, bodies[i])
end
function done(summary, latency, requests)
  local most = 0
  for _, t in ipairs(threads) do most = math.max(most, t:get("n")) end
  local f = io.open(offsets, "w")
  f:write(tostring(threads[1]:get("start") + most * stride))
  f:close()
end
`, luaString([]byte(ck.Key)), threads, luaString([]byte(filepath.Join(dir, "verify.offset"))), luaString([]byte(data)))
	path := filepath.Join(dir, "verify.lua")
	return path, os.WriteFile(path, []byte(script), 0o600)
}

// verifyReused is how many verifications went to a session already verified
// (0 when the sessions sufficed).
func verifyReused(dir string, n int) int {
	b, err := os.ReadFile(filepath.Join(dir, "verify.offset"))
	if err != nil {
		return 0
	}
	used, _ := strconv.Atoi(string(bytes.TrimSpace(b)))
	return max(0, used-n)
}

// initiate places one guest checkout of ck on srv and returns its session.
func initiate(ctx context.Context, client *http.Client, srv *server, ck *bench.Checkout, idem string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", srv.url+bench.PathInitiate, bytes.NewReader(ck.Body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Service-Key", ck.Key)
	req.Header.Set("Idempotency-Key", idem)
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Data struct {
			PaymentSessionID string `json:"payment_session_id"`
		} `json:"data"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(raw, &env) != nil || env.Data.PaymentSessionID == "" {
		return "", fmt.Errorf("initiate for the verify load: %d %s", resp.StatusCode, raw)
	}
	return env.Data.PaymentSessionID, nil
}
