package storage

// Storage of the payment records: see app/payment*.go.
