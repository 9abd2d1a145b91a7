//go:build !unix

package client

// readTyped returns false once done is closed: on other systems the
// terminal is read only at the prompt, and Ctrl-C stops a query.
func readTyped(done <-chan struct{}) (string, bool) {
	<-done
	return "", false
}
