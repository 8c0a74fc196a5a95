package storage

// Storage of the review records: see app/review*.go.
