// Package config loads the configuration of a Storefront server with koanf:
// the defaults (Defaults in config.go), then a YAML file, then STOREFRONT_ environment variables
// (`__` between levels). Every key is read into a typed Config, and a value
// of the wrong type or out of range is an error naming the key. It imports
// koanf and cron (to check schedules) and nothing of storefront.
package config
