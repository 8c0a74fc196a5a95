package shop

// DecodeAccountForm is the account forms' decoder with the register
// form's fields (fuzzed).
func DecodeAccountForm(body []byte) (map[string]string, error) {
	return decodeAccountForm(body, registerFields)
}
