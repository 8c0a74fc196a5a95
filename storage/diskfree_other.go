//go:build !(linux || darwin)

package storage

// freeBytes cannot be told on this platform: -1 (the backup is attempted).
func freeBytes(string) int64 { return -1 }
