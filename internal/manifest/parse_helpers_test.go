package manifest

// parse is Parse, also returning the paths the position index did not
// know.
func parse(path string, src []byte) (*Manifest, Errors, []string) {
	return parseMisses(path, src, Limits{})
}
