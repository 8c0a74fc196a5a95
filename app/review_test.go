package app_test

import (
	"testing"

	"storefront/app"
)

func TestReviewerName(t *testing.T) {
	for _, tc := range []struct{ first, last, want string }{
		{"Ann", "smith", "Ann S."},
		{"Ann", "", "Ann"},
		{"", "Érdi", "É."},
		{" Bo ", " ørsted", "Bo Ø."},
	} {
		if got := app.ReviewerName(&app.Customer{FirstName: tc.first, LastName: tc.last}); got != tc.want {
			t.Errorf("ReviewerName(%q, %q): got %q, want %q", tc.first, tc.last, got, tc.want)
		}
	}
}

func TestReviewSummaryView(t *testing.T) {
	var s app.ReviewSummary
	if v := s.View(); v.AverageRating != 0 || v.TotalReviews != 0 || len(v.RatingBreakdown) != 5 {
		t.Fatalf("empty: got %+v", v)
	}
	s.Add(5, 1)
	s.Add(4, 1)
	s.Add(2, 1)
	s.Add(2, -1)
	s.Add(2, -1) // never below zero
	s.Add(7, 1)  // out of range: ignored
	s.Add(2, 1)
	v := s.View()
	if v.AverageRating != 3.67 || v.TotalReviews != 3 || v.RatingBreakdown["2"] != 1 || v.RatingBreakdown["3"] != 0 {
		t.Fatalf("got %+v, want 3.67 over 3", v)
	}
}

func TestTicketIDs(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		id := app.NewUUID()
		if got, ok := app.ParseUUID(id); !ok || got != id || id[14] != '4' || seen[id] {
			t.Fatalf("NewUUID gave %q", id)
		}
		seen[id] = true
	}
	for _, bad := range []string{"", "123", "0b4f0c0e-3f6e-4d3a-9a57-1f2a3b4c5d6", "0b4f0c0e-3f6e-4d3a-9a57-1f2a3b4c5d6g", "0b4f0c0e03f6e-4d3a-9a57-1f2a3b4c5d6e"} {
		if _, ok := app.ParseUUID(bad); ok {
			t.Errorf("ParseUUID(%q) accepted", bad)
		}
	}
	if got, ok := app.ParseUUID("0B4F0C0E-3F6E-4D3A-9A57-1F2A3B4C5D6E"); !ok || got != "0b4f0c0e-3f6e-4d3a-9a57-1f2a3b4c5d6e" {
		t.Errorf("upper case: got %q %v", got, ok)
	}
	if app.TicketNumber(7) != "TKT-000007" || app.TicketNumber(1234567) != "TKT-1234567" {
		t.Errorf("got %s %s", app.TicketNumber(7), app.TicketNumber(1234567))
	}
}
