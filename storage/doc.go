// Package storage implements app.DB on bbolt: one file, a fixed set of
// top-level buckets, every tenant key prefixed by the 8-byte big-endian store
// id, per-store id sequences, and sort indexes kept in the same transaction
// as their records.
//
// storage imports app and bbolt. It must not import web or admin. keys.go is
// the only place that builds keys.
package storage
