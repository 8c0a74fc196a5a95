package testenv

import (
	"bytes"
	"mime/multipart"
	"testing"
)

// File is one file of a multipart upload (Multipart).
type File struct {
	Name string
	Data []byte
}

// Multipart builds a multipart body with one part per file, all named
// field, and its content type.
func Multipart(t testing.TB, field string, files ...File) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range files {
		w, err := mw.CreateFormFile(field, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.Data)
	}
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}
