package storage

import (
	"bytes"
	"testing"
	"time"
)

// TestKeyLayout pins the byte layout of every kind of key part: the files on
// disk are keyed this way, so a change here is a migration.
func TestKeyLayout(t *testing.T) {
	got := keyOf(1).id(2).code(3).str0("a\x00b").raw([]byte{9, 9}).at(time.Unix(-1, 0)).last("z")
	want := []byte{
		0, 0, 0, 0, 0, 0, 0, 1, // store id
		0, 0, 0, 0, 0, 0, 0, 2, // id
		3,           // code
		'a', 'b', 0, // str0: NULs dropped, then a NUL
		9, 9, // raw
		0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // at: -1s sorts before 0
		'z', // last
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("got  %v\nwant %v", []byte(got), want)
	}
	if !bytes.Equal(str0("ab"), []byte("ab\x00")) || !bytes.Equal(timeKey(time.Unix(0, 0)), []byte{0x80, 0, 0, 0, 0, 0, 0, 0}) {
		t.Fatal("str0 or timeKey changed")
	}
	// Two keys from one start never share bytes.
	a, b := keyOf(7).id(1), keyOf(7).id(2)
	if bytes.Equal(a, b) {
		t.Fatal("keys share their backing array")
	}
}
