package storage

// Storage of the cart records: see app/cart*.go.
