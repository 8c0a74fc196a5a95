package storage

// Storage of the contact records: see app/contact*.go.
