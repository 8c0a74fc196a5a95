package storage

// Storage of the coupon records: see app/coupon*.go.
