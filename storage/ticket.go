package storage

// Storage of the ticket records: see app/ticket*.go.
