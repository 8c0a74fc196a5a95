// Package asynclog is a buffered, asynchronous io.Writer for log output, so
// that writing a log line never waits on the terminal, a pipe or a disk.
//
// A Write copies the line into a bounded in-memory queue and returns; one
// goroutine writes the queue out on an interval, when enough bytes are
// waiting, and at Close. When the queue is full a line is dropped and
// counted rather than making the request that logged it wait; the count is
// exposed for metrics and reported through a callback at most once a minute.
//
// It imports only the standard library and nothing of the project.
package asynclog
