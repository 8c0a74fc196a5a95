package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// deepPNG is a real PNG of w x h pixels, 16-bit RGBA, all zero: a few
// hundred KB that decode to w*h*8 bytes.
func deepPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	return zeroPNG(w, h, 16)
}

// zeroPNG is a real PNG of w x h pixels, RGBA of depth bits per channel (8 or
// 16), all zero: a few hundred KB that decode to w*h*depth/2 bytes.
func zeroPNG(w, h, depth int) []byte {
	bpp := 4 * depth / 8
	chunk := func(out *bytes.Buffer, typ string, data []byte) {
		binary.Write(out, binary.BigEndian, uint32(len(data)))
		out.WriteString(typ)
		out.Write(data)
		binary.Write(out, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(w)), uint32(h))
	chunk(&out, "IHDR", append(ihdr, byte(depth), 6, 0, 0, 0))
	chunk(&out, "IDAT", zerosZlib(h*(1+w*bpp))) // each row: filter 0, then the pixels
	chunk(&out, "IEND", nil)
	return out.Bytes()
}

// zerosZlib is the zlib stream of n zero bytes (n >= 2 MiB), made without
// compressing them all: after a first MiB, the deflate blocks of one more MiB
// of zeros (ended by a sync flush, so byte-aligned) only refer back into
// zeros, so the same bytes encode every further MiB.
func zerosZlib(n int) []byte {
	const step = 1 << 20
	var out bytes.Buffer
	out.Write([]byte{0x78, 0xda}) // zlib header: deflate, 32 KiB window, best compression
	fw, _ := flate.NewWriter(&out, flate.BestCompression)
	zero := make([]byte, step)
	fw.Write(zero)
	fw.Flush()
	mark := out.Len()
	fw.Write(zero)
	fw.Flush()
	again := bytes.Clone(out.Bytes()[mark:])
	done := 2 * step
	for ; done+step <= n; done += step {
		out.Write(again)
	}
	fw.Write(zero[:n-done])
	fw.Close()
	// Adler-32 of n zeros: the sum a stays 1, b adds it n times.
	binary.Write(&out, binary.BigEndian, uint32(n%65521)<<16|1)
	return out.Bytes()
}

// peakRSS is the high-water mark of a process's resident memory (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

// TestUploadFloodsBoundedMemory (issue 27 point 5): 40 parallel anonymous
// 31 MB uploads (images and CSV import), 10 parallel uploads of a 16-bit
// 50 MP PNG from an admin and 12 parallel 31 MB uploads from that admin leave
// the binary under 300 MB of resident memory while it keeps serving. Before: 1.06 GB for 20 anonymous uploads, 2.1 GB
// for three PNGs.
func TestUploadFloodsBoundedMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary")
	}
	p := startBinary(t, cleanEnviron(testEnviron(t.TempDir(), "STOREFRONT_LOG__FORMAT=json",
		"STOREFRONT_ADMIN__EMAIL=owner@example.com", "STOREFRONT_ADMIN__PASSWORD=owner-password",
		"STOREFRONT_RATELIMIT__API_PER_SECOND=0")...))
	base := "http://" + p.addr
	call := func(method, path, tok string, body any, out any) {
		t.Helper()
		adminCall(t, base, method, path, tok, body, out)
	}
	var login struct {
		AccessToken string `json:"access_token"`
	}
	call("POST", "/api/v1/admin/auth/login/", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, &login)
	tok := login.AccessToken
	var st, cat, prod struct {
		ID uint64 `json:"id"`
	}
	call("POST", "/api/v1/admin/stores/", tok, map[string]string{"name": "Up", "subdomain": "up", "currency": "USD"}, &st)
	call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/categories/", st.ID), tok, map[string]any{"name": "C"}, &cat)
	call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), tok, map[string]any{"name": "P", "price": "1.00", "stock": 1, "category_id": cat.ID}, &prod)
	images := fmt.Sprintf("%s/api/v1/admin/stores/%d/products/%d/images/", base, st.ID, prod.ID)
	imports := fmt.Sprintf("%s/api/v1/admin/stores/%d/products/import/", base, st.ID)

	// upload posts one multipart file and returns the status (0: the server
	// closed the connection while the body was still being sent) and body.
	// The file's bytes are shared by every request, not copied (40 x 31 MB).
	upload := func(url, tok, name string, data []byte) (int, string) {
		var head, tail bytes.Buffer
		mw := multipart.NewWriter(&head)
		mw.CreateFormFile("file", name)
		fmt.Fprintf(&tail, "\r\n--%s--\r\n", mw.Boundary())
		req, _ := http.NewRequest("POST", url, io.MultiReader(&head, bytes.NewReader(data), &tail))
		req.ContentLength = int64(head.Len() + len(data) + tail.Len())
		req.Header.Set("Content-Type", mw.FormDataContentType())
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// served checks that a plain request is answered meanwhile.
	var healthFails atomic.Int64
	stopHealth := make(chan struct{})
	healthDone := make(chan struct{})
	go func() {
		defer close(healthDone)
		client := &http.Client{Timeout: 5 * time.Second}
		for {
			select {
			case <-stopHealth:
				return
			case <-time.After(50 * time.Millisecond):
			}
			resp, err := client.Get(base + "/healthz")
			if err != nil || resp.StatusCode != 200 {
				healthFails.Add(1)
			}
			if err == nil {
				resp.Body.Close()
			}
		}
	}()

	big := make([]byte, 31<<20)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 40 {
		wg.Go(func() {
			url := images
			if i%2 == 1 {
				url = imports
			}
			s, _ := upload(url, "", "big.jpg", big)
			mu.Lock()
			statuses[s]++
			mu.Unlock()
		})
	}
	wg.Wait()
	for s, n := range statuses {
		if s != 401 && s != 0 {
			t.Errorf("anonymous 31 MB uploads: %d answered %d, want 401 (all: %v)", n, s, statuses)
		}
	}
	anon := peakRSS(t, p.cmd.Process.Pid)

	png := deepPNG(t, 7071, 7071)
	t.Logf("16-bit 7071x7071 PNG: %d bytes", len(png))
	statuses = map[int]int{}
	for range 10 {
		wg.Go(func() {
			s, body := upload(images, tok, "deep.png", png)
			if s == 413 && !strings.Contains(body, "MB decoded") {
				s = -413 // refused, but not for its decoded size
			}
			mu.Lock()
			statuses[s]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[413] != 10 {
		t.Errorf("16-bit 50 MP PNGs: got %v, want 10 x 413 for the decoded size", statuses)
	}
	pngs := peakRSS(t, p.cmd.Process.Pid)

	// An admin's flood of 31 MB uploads: two are read at once (web.UploadsPerStore),
	// the others are 429 before their bodies are read (0: closed while sending).
	statuses = map[int]int{}
	for range 12 {
		wg.Go(func() {
			s, _ := upload(images, tok, "big.jpg", big)
			mu.Lock()
			statuses[s]++
			mu.Unlock()
		})
	}
	wg.Wait()
	close(stopHealth)
	<-healthDone
	if statuses[429]+statuses[0] == 0 || statuses[429]+statuses[0]+statuses[413]+statuses[400] != 12 {
		t.Errorf("an admin's 31 MB uploads: got %v, want 429s and the rest 400 or 413", statuses)
	}
	peak := peakRSS(t, p.cmd.Process.Pid)
	t.Logf("peak RSS: %d MB after the anonymous uploads, %d MB after the PNGs, %d MB after the admin's uploads", anon>>20, pngs>>20, peak>>20)
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MB, want under 300 MB", peak>>20)
	}
	if n := healthFails.Load(); n > 0 {
		t.Errorf("%d health checks failed during the floods, want none", n)
	}
	p.sigterm(t)
}
