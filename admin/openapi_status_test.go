package admin_test

import (
	"fmt"
	"testing"

	"storefront/testenv"
)

// TestCompleteListsRefuseBadParams: the admin lists that answer every item
// at once still check limit, sort and cursor (400 validation_failed), and
// the document lists that status (the recorder checks it).
func TestCompleteListsRefuseBadParams(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("A")
	for _, path := range []string{"/stores/", "/users/", fmt.Sprintf("/stores/%d/categories/", sid),
		fmt.Sprintf("/stores/%d/coupons/", sid), fmt.Sprintf("/stores/%d/webhooks/", sid)} {
		for _, q := range []string{"limit=0", "sort=nope", "cursor=zz"} {
			t.Run(path+"?"+q, func(t *testing.T) {
				e.Do(testenv.Req{Method: "GET", Path: api + path + "?" + q, Token: e.OwnerToken}).Expect(t, 400, "validation_failed")
			})
		}
	}
}
