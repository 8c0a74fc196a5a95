package storage

// Storage of the address records: see app/address*.go.
