-- 0003: rate-limit and failed-login counters shared by every process
-- (app.Limiter): one fixed window per key and window length.
CREATE TABLE limits (
	key       bytea       NOT NULL,
	window_ms bigint      NOT NULL,
	start     timestamptz NOT NULL, -- the window's start (a multiple of its length)
	n         integer     NOT NULL,
	PRIMARY KEY (key, window_ms)
);
CREATE INDEX limits_start ON limits (start);
