package app

// Passwords hashes and checks passwords (bcrypt in production).
type Passwords interface {
	Hash(password string) ([]byte, error)
	// Compare reports whether password matches hash, in constant time.
	Compare(hash []byte, password string) bool
	// Dummy does the work of one Compare, for unknown accounts, so that
	// timing does not tell whether an account exists.
	Dummy(password string)
}
