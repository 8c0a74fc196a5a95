package storage

// Storage of the request records: see app/request*.go.
