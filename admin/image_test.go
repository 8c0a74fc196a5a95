package admin_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

func testGIF(t testing.TB) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 300, 200), color.Palette{color.Black, color.White})
	for x := 0; x < 300; x += 2 {
		img.SetColorIndex(x, x%200, 1)
	}
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func imagesPath(sid, pid uint64) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/images/", sid, pid)
}

func uploadImages(e *testenv.Env, token string, sid, pid uint64, files ...testenv.File) *testenv.Response {
	body, ct := testenv.Multipart(e.T, "file", files...)
	return e.Do(testenv.Req{Method: "POST", Path: imagesPath(sid, pid), Token: token, Body: body, Header: map[string]string{"Content-Type": ct}})
}

type productImages struct {
	ID     uint64   `json:"id"`
	Images []string `json:"images"`
}

// get fetches a media URL's path through the app.
func getMedia(t *testing.T, e *testenv.Env, url string, hdr map[string]string) *testenv.Response {
	t.Helper()
	path := strings.TrimPrefix(url, "http://shop.test")
	if path == url {
		t.Fatalf("image URL %s is not absolute on the public URL", url)
	}
	return e.Do(testenv.Req{Method: "GET", Path: path, Header: hdr})
}

func TestProductImageUpload(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 2000, 5)
	staffB := e.Staff(sidB, "staff-b@example.com")
	webp, err := os.ReadFile("testdata/sample.webp")
	if err != nil {
		t.Fatal(err)
	}

	var got productImages
	uploadImages(e, e.OwnerToken, sid, p.ID, testenv.File{Name: "photo.jpg", Data: testJPEG(t, 1280, 640)}).Expect(t, 201, "").Decode(t, &got)
	if len(got.Images) != 1 || !strings.HasPrefix(got.Images[0], "http://shop.test/media/") || !strings.HasSuffix(got.Images[0], "-1200.jpg") {
		t.Fatalf("images: got %v, want one absolute /media/ URL of width 1200", got.Images)
	}
	first := got.Images[0]

	t.Run("ServedInThreeWidths", func(t *testing.T) {
		for _, w := range app.MediaWidths {
			url := strings.Replace(first, "-1200.jpg", fmt.Sprintf("-%d.jpg", w), 1)
			r := getMedia(t, e, url, nil)
			if r.Status != 200 || r.Header.Get("Content-Type") != "image/jpeg" {
				t.Fatalf("%d: got %d %s", w, r.Status, r.Header.Get("Content-Type"))
			}
			if cc := r.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
				t.Fatalf("Cache-Control: got %q", cc)
			}
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(r.Raw))
			if err != nil || cfg.Width != w || cfg.Height != w/2 {
				t.Fatalf("%d: decoded %+v %v, want %dx%d", w, cfg, err, w, w/2)
			}
			if bytes.Contains(r.Raw, []byte("Exif")) || bytes.Contains(r.Raw, []byte("SECRET-LOCATION")) {
				t.Fatalf("%d: the EXIF data survived re-encoding", w)
			}
			etag := r.Header.Get("ETag")
			if etag == "" {
				t.Fatal("no ETag")
			}
			if r := getMedia(t, e, url, map[string]string{"If-None-Match": etag}); r.Status != 304 || len(r.Raw) != 0 {
				t.Fatalf("If-None-Match: got %d with %d bytes, want 304", r.Status, len(r.Raw))
			}
		}
	})

	t.Run("SeveralFilesAndTypes", func(t *testing.T) {
		uploadImages(e, e.OwnerToken, sid, p.ID,
			testenv.File{Name: "a.png", Data: testPNG(t, 600, 300)},
			testenv.File{Name: "b.gif.jpg", Data: testGIF(t)}, // the name lies: sniffed by content
			testenv.File{Name: "c.webp", Data: webp},
		).Expect(t, 201, "").Decode(t, &got)
		if len(got.Images) != 4 {
			t.Fatalf("images: got %d, want 4: %v", len(got.Images), got.Images)
		}
		if !strings.HasSuffix(got.Images[1], ".png") { // transparency kept: PNG
			t.Fatalf("PNG with alpha: got %s, want a .png rendition", got.Images[1])
		}
		r := getMedia(t, e, strings.Replace(got.Images[1], "-1200.png", "-480.png", 1), nil)
		if cfg, err := png.DecodeConfig(bytes.NewReader(r.Raw)); err != nil || cfg.Width != 480 {
			t.Fatalf("PNG 480: got %+v %v", cfg, err)
		}
		r = getMedia(t, e, got.Images[2], nil) // a 300 px GIF is not scaled up
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(r.Raw)); err != nil || cfg.Width != 300 {
			t.Fatalf("GIF at 1200: got %+v %v, want its own 300 px", cfg, err)
		}
	})

	t.Run("Reorder", func(t *testing.T) {
		order := []string{got.Images[3], got.Images[0], got.Images[2], got.Images[1]}
		var after productImages
		e.Do(testenv.Req{Method: "PUT", Path: imagesPath(sid, p.ID), Token: e.OwnerToken, Body: map[string]any{"images": order}}).Expect(t, 200, "").Decode(t, &after)
		if fmt.Sprint(after.Images) != fmt.Sprint(order) {
			t.Fatalf("reorder: got %v, want %v", after.Images, order)
		}
		got = after
		r := e.Do(testenv.Req{Method: "PUT", Path: imagesPath(sid, p.ID), Token: e.OwnerToken, Body: map[string]any{"images": []string{"https://elsewhere.example/x.jpg"}}})
		r.Expect(t, 400, "validation_failed")
		e.Do(testenv.Req{Method: "PUT", Path: imagesPath(sid, p.ID), Token: e.OwnerToken, Body: map[string]any{"images": []string{order[0], order[0]}}}).Expect(t, 400, "validation_failed")
		e.Do(testenv.Req{Method: "PUT", Path: imagesPath(sid, p.ID), Token: e.OwnerToken, Body: map[string]any{}}).Expect(t, 400, "validation_failed")
	})

	t.Run("Errors", func(t *testing.T) {
		jpg := testenv.File{Name: "x.jpg", Data: testJPEG(t, 50, 50)}
		for _, tc := range []struct {
			name   string
			token  string
			sid    uint64
			pid    uint64
			files  []testenv.File
			status int
			code   string
		}{
			{"ErrNoCredentials", "", sid, p.ID, []testenv.File{jpg}, 401, "unauthorized"},
			{"ErrOtherStoresToken", staffB, sid, p.ID, []testenv.File{jpg}, 404, "not_found"},
			{"ErrOtherStoresProduct", e.OwnerToken, sidB, p.ID, []testenv.File{jpg}, 404, "not_found"},
			{"ErrTextNamedPNG", e.OwnerToken, sid, p.ID, []testenv.File{{Name: "evil.png", Data: []byte("<?php echo 1; ?> not an image at all")}}, 400, "validation_failed"},
			{"ErrTruncatedJPEG", e.OwnerToken, sid, p.ID, []testenv.File{{Name: "cut.jpg", Data: testJPEG(t, 100, 100)[:300]}}, 400, "validation_failed"},
			{"ErrEmptyFile", e.OwnerToken, sid, p.ID, []testenv.File{{Name: "empty.jpg", Data: nil}}, 400, "validation_failed"},
			{"ErrTooLarge", e.OwnerToken, sid, p.ID, []testenv.File{{Name: "big.jpg", Data: append(testJPEG(t, 10, 10), make([]byte, 10<<20)...)}}, 413, "payload_too_large"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := uploadImages(e, tc.token, tc.sid, tc.pid, tc.files...).Expect(t, tc.status, tc.code)
				if tc.status == 413 && !strings.Contains(r.Body.Message, "10 MB") {
					t.Fatalf("message: got %q, want the 10 MB cap named", r.Body.Message)
				}
			})
		}
		t.Run("ErrNoFilePart", func(t *testing.T) {
			body, ct := testenv.Multipart(t, "image", jpg)
			e.Do(testenv.Req{Method: "POST", Path: imagesPath(sid, p.ID), Token: e.OwnerToken, Body: body, Header: map[string]string{"Content-Type": ct}}).Expect(t, 400, "validation_failed")
		})
		t.Run("ErrNotMultipart", func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: imagesPath(sid, p.ID), Token: e.OwnerToken, Body: map[string]any{"file": "x"}}).Expect(t, 400, "validation_failed")
		})
		t.Run("ErrJSONRouteStillOneMiB", func(t *testing.T) {
			// A raw request announcing 2 MiB: the server answers 413 from the
			// Content-Length alone (a client still writing the body could see
			// the connection reset instead of the answer).
			conn, err := net.Dial("tcp", strings.TrimPrefix(e.Listen(), "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "PATCH /api/v1/admin/stores/%d/products/%d/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", sid, p.ID, e.OwnerToken, 2<<20)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 413 {
				t.Fatalf("a 2 MiB JSON body: got %d, want 413", resp.StatusCode)
			}
		})
		t.Run("ErrAnonymousBodyNotRead", func(t *testing.T) {
			// Headers announcing 31 MB and no body: without a live admin
			// credential the answer is 401 at once, nothing of the body read;
			// the CSV import likewise. A forged token is no credential.
			for _, tc := range []struct{ path, auth string }{
				{imagesPath(sid, p.ID), ""},
				{imagesPath(sid, p.ID), "Authorization: Bearer forged.token.here\r\n"},
				{fmt.Sprintf("/api/v1/admin/stores/%d/products/import/", sid), ""},
				{fmt.Sprintf("/admin/stores/%d/products/%d/images", sid, p.ID), "Cookie: sf_admin=" + strings.Repeat("0", 64) + "\r\n"},
			} {
				conn, err := net.Dial("tcp", strings.TrimPrefix(e.Listen(), "http://"))
				if err != nil {
					t.Fatal(err)
				}
				conn.SetDeadline(time.Now().Add(10 * time.Second))
				fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n%sContent-Type: multipart/form-data; boundary=x\r\nContent-Length: %d\r\n\r\n", tc.path, tc.auth, 31<<20)
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatalf("%s %q: %v (the server waited for the body)", tc.path, tc.auth, err)
				}
				resp.Body.Close()
				conn.Close()
				if resp.StatusCode != 401 {
					t.Fatalf("%s %q: got %d, want 401 before the body", tc.path, tc.auth, resp.StatusCode)
				}
			}
		})
		t.Run("ErrDecodedTooLarge", func(t *testing.T) {
			// 7071x7071 at 16 bits per channel: 381 MB decoded, refused from its header.
			r := uploadImages(e, e.OwnerToken, sid, p.ID, testenv.File{Name: "deep.png", Data: pngHeader(7071, 7071, 16, 6)}).Expect(t, 413, "payload_too_large")
			if !strings.Contains(r.Body.Errors["file"], "MB decoded") {
				t.Fatalf("errors: got %v, want the decoded size named", r.Body.Errors)
			}
			// The same canvas at 8 bits grey is 48 MB: past the budget check,
			// it fails only for want of pixel data.
			r = uploadImages(e, e.OwnerToken, sid, p.ID, testenv.File{Name: "grey.png", Data: pngHeader(7071, 7071, 8, 0)}).Expect(t, 400, "validation_failed")
			if strings.Contains(r.Body.Errors["file"], "MB decoded") {
				t.Fatalf("an 8-bit grey image: got %v, want it within the budget", r.Body.Errors)
			}
		})
		t.Run("ErrMediaOfOtherStore", func(t *testing.T) {
			path := strings.TrimPrefix(got.Images[0], "http://shop.test")
			other := strings.Replace(path, fmt.Sprintf("/media/%d/", sid), fmt.Sprintf("/media/%d/", sidB), 1)
			e.Do(testenv.Req{Method: "GET", Path: other}).Expect(t, 404, "not_found")
			e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/media/%d/nothex-160.jpg", sid)}).Expect(t, 404, "not_found")
		})
	})

	t.Run("DeleteFreesStorage", func(t *testing.T) {
		// A second product shares the first upload: it stays while one uses it.
		q := e.Product(sid, 0, "Cup", 1000, 1)
		var q1 productImages
		uploadImages(e, e.OwnerToken, sid, q.ID, testenv.File{Name: "photo.jpg", Data: testJPEG(t, 1280, 640)}).Expect(t, 201, "").Decode(t, &q1)
		if q1.Images[0] != first {
			t.Fatalf("same bytes: got %s, want the same content address %s", q1.Images[0], first)
		}
		ref, _ := app.ParseMediaURL(first)
		if n, _ := e.Svc.Catalog.MediaRefs(sid, ref.Hash); n != 2 {
			t.Fatalf("refs: got %d, want 2", n)
		}
		idx := -1
		for i, u := range got.Images {
			if u == first {
				idx = i
			}
		}
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", imagesPath(sid, p.ID), idx), Token: e.OwnerToken}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", imagesPath(sid, p.ID), 99), Token: e.OwnerToken}).Expect(t, 404, "not_found")
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", imagesPath(sid, p.ID), 0)}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", imagesPath(sid, p.ID), 0), Token: staffB}).Expect(t, 404, "not_found")
		if r := getMedia(t, e, first, nil); r.Status != 200 {
			t.Fatalf("still used by Cup: got %d", r.Status)
		}
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, q.ID), Token: e.OwnerToken}).Expect(t, 200, "")
		if n, _ := e.Svc.Catalog.MediaRefs(sid, ref.Hash); n != 0 {
			t.Fatalf("refs after both are gone: got %d, want 0", n)
		}
		for _, w := range app.MediaWidths {
			url := strings.Replace(first, "-1200.", fmt.Sprintf("-%d.", w), 1)
			getMedia(t, e, url, nil).Expect(t, 404, "not_found")
		}
		// Deleting the product frees the rest.
		var rest productImages
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, p.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &rest)
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, p.ID), Token: e.OwnerToken}).Expect(t, 200, "")
		for _, u := range rest.Images {
			getMedia(t, e, u, nil).Expect(t, 404, "not_found")
		}
	})

	t.Run("URLImagesKeepWorking", func(t *testing.T) {
		var u productImages
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/", sid), Token: e.OwnerToken,
			Body: map[string]any{"name": "Linked", "price": "1.00", "images": []string{"https://cdn.example/a.jpg"}}}).Expect(t, 201, "").Decode(t, &u)
		uploadImages(e, e.OwnerToken, sid, u.ID, testenv.File{Name: "x.png", Data: testPNG(t, 100, 100)}).Expect(t, 201, "").Decode(t, &u)
		if len(u.Images) != 2 || u.Images[0] != "https://cdn.example/a.jpg" {
			t.Fatalf("images: got %v", u.Images)
		}
		// A made-up upload URL of this store is refused: it would count nothing.
		fake := fmt.Sprintf("http://shop.test/media/%d/%s-1200.jpg", sid, strings.Repeat("ab", 32))
		e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, u.ID), Token: e.OwnerToken,
			Body: map[string]any{"images": []string{fake}}}).Expect(t, 400, "validation_failed")
	})
}

// pngHeader is the signature and IHDR chunk of a PNG of w x h pixels
// (depth bits per channel, colour type ct), with an empty IDAT and IEND:
// enough for image.DecodeConfig, not for Decode.
func pngHeader(w, h uint32, depth, ct byte) []byte {
	chunk := func(typ string, data []byte) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		b = append(append(b, typ...), data...)
		return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
	ihdr = append(ihdr, depth, ct, 0, 0, 0)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, chunk("IHDR", ihdr)...)
	out = append(out, chunk("IDAT", nil)...)
	return append(out, chunk("IEND", nil)...)
}

// testJPEG and testPNG are test images (testenv.JPEG, testenv.PNG).
var testJPEG, testPNG = testenv.JPEG, testenv.PNG
