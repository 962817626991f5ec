//go:build wasip1

// Command goprobe is a Go guest for the metering tests: built with
// GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared, it is a reactor whose
// exports are called after _initialize.
package main

import "crypto/sha256"

// probe hashes a fixed pattern and returns one byte of the digest.
//
//go:wasmexport probe
func probe() int32 {
	data := make([]byte, 4096)
	for i := range data {
		data[i] = byte(i * 7)
	}
	sum := sha256.Sum256(data)
	return int32(sum[3])
}

var mib = make([]byte, 1<<20)

// sha1mib hashes 1 MiB and returns one byte of the digest (benchmark).
//
//go:wasmexport sha1mib
func sha1mib() int32 {
	sum := sha256.Sum256(mib)
	return int32(sum[0])
}

func main() {}
