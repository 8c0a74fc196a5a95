package web

import (
	"testing"

	"github.com/valyala/fasthttp"
)

// TestSwapBodyContract pins what sendDocs leans on in fasthttp's internals:
// Response.SwapBody takes our buffer as the body without copying it and
// hands back the bytes of the body it had, which the response no longer
// uses (sendDocs puts them into docBufs). If fasthttp copied, the swap
// would cost a copy per page; if it kept using the bytes it hands back,
// two responses would share a buffer and one would be sent with the
// other's page.
func TestSwapBodyContract(t *testing.T) {
	t.Parallel()
	var r fasthttp.Response
	r.SetBodyString("the previous body")
	mine := append(make([]byte, 0, 64), "a page of docs"...)
	old := r.SwapBody(mine)
	if string(old) != "the previous body" {
		t.Fatalf("SwapBody handed back %q, want the previous body", old)
	}
	if body := r.Body(); len(body) == 0 || &body[0] != &mine[0] {
		t.Fatal("SwapBody copied the new body instead of taking the buffer")
	}
	copy(old, "XXXXXXXXXXXXXXXXX") // what docBufs' next user does with it
	if string(r.Body()) != "a page of docs" {
		t.Fatalf("the response still uses the bytes it handed back: %q", r.Body())
	}
}
