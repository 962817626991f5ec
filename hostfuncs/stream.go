package hostfuncs

import (
	"context"

	"github.com/tetratelabs/wazero/api"
)

// Placeholders of the ABI v2 functions until they are built: each answers
// bad request, so a probe that imports them links and learns nothing.

func stub(fn string) api.GoModuleFunc {
	return func(ctx context.Context, m api.Module, stack []uint64) {
		c := callFrom(ctx, fn)
		stack[0] = api.EncodeI32(StatusBadRequest)
		c.Check(ctx, fn)
	}
}

var (
	hostConnect    = stub("gate.connect")
	hostSend       = stub("gate.send")
	hostRecv       = stub("gate.recv")
	hostClose      = stub("gate.close")
	hostHTTP       = stub("gate.http")
	hostHTTPStatus = stub("gate.http_status")
	hostHTTPHeader = stub("gate.http_header")
	hostHTTPBody   = stub("gate.http_body")
	hostTLS        = stub("gate.tls")
	hostLastError  = stub("gate.last_error")
)
