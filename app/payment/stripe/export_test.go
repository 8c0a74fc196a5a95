package stripe

// RedactKeys is redactKeys for the tests.
var RedactKeys = redactKeys
