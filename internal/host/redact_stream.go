package host

import "slices"

// redactStream holds bytes a peer sent until they can be redacted whole.
//
// A value cut in two by where the host hands bytes over is redacted in
// neither piece, and the probe positions that cut as it pleases: by the
// size of what it reads, by its timeouts, by padding what it sends so that
// an echo reaches a bound at a chosen offset. So the host never cuts raw
// bytes anywhere but at a safe point: one that no value, in any form the
// redactor knows, can span whatever bytes come next. A point is safe when
// it lies at least maxPattern-1 bytes before the end of what has arrived,
// and is not inside or at the edge of a run of values found there; the end
// of the stream is safe too. Bounds and windows are then applied to the
// redacted text, where a cut can only split a placeholder or bytes that
// were never secret.
//
// maxPattern is a constant, so how much is held tells nothing about a
// value's length; where a run of values moves the cut, the probe learns
// that a value is there, which it reads in the placeholder anyway.
type redactStream struct {
	raw []byte // received, not yet handed over
	// margin is how far behind the end a safe point lies: 0 means
	// maxPattern-1, which every run uses. The fuzzer sets it to what its
	// short values need, so that its inputs can stay short.
	margin int
	// fresh counts the bytes pushed since release last scanned.
	fresh int
	// work is the scan work done so far (see redactor.scan), which tests
	// read.
	work int
	// found names the first secret whose value a scan found: the host
	// hands none of the stream over from then on (echo.go).
	found string
}

func (s *redactStream) push(b []byte) {
	s.raw = append(s.raw, b...)
	s.fresh += len(b)
}

func (s *redactStream) empty() bool { return len(s.raw) == 0 }

// drop forgets what is held: bytes past a bound are never handed over.
func (s *redactStream) drop() { s.raw, s.fresh = nil, 0 }

// release returns, redacted by r, what can be handed over: everything
// when final (the stream ended, or the peer fell quiet), else what lies
// before the last safe point. r nil redacts nothing and holds nothing.
func (s *redactStream) release(r *redactor, final bool) []byte {
	if r == nil {
		out := s.raw
		s.raw = nil
		return out
	}
	cut := len(s.raw)
	if !final {
		margin := s.margin
		if margin == 0 {
			margin = maxPattern - 1
		}
		cut -= margin
		if cut <= 0 {
			return nil
		}
		// Scan again only once as many bytes have come as were scanned
		// before without being handed over (the margin, or a run of
		// values that reaches the cut), so that each byte is scanned
		// about twice however the peer cuts its writes: one that sends a
		// byte at a time would otherwise have the host scan all it holds
		// for each one, on the host's CPU.
		if s.fresh < max(margin, len(s.raw)-s.fresh) {
			return nil
		}
	}
	s.fresh = 0
	hits, work := r.scan(s.raw)
	s.work += work
	if len(hits) > 0 && s.found == "" {
		ph := hits[0].placeholder
		s.found = ph[len(placeholderOpen) : len(ph)-1]
	}
	if !final {
		cut = safeCut(hits, cut)
	}
	if cut == 0 {
		return nil
	}
	kept := hits[:0]
	for _, h := range hits {
		if h.start < cut {
			kept = append(kept, h)
		}
	}
	var out []byte
	if len(kept) == 0 {
		out = slices.Clone(s.raw[:cut])
	} else {
		out = r.apply(s.raw[:cut], kept)
	}
	s.raw = append(s.raw[:0:0], s.raw[cut:]...)
	return out
}

// safeCut moves cut back to the start of the run of hits that crosses or
// touches it, if one does. Runs are what apply merges into one
// placeholder: hits that overlap or touch.
func safeCut(hits []redactHit, cut int) int {
	slices.SortStableFunc(hits, func(x, y redactHit) int { return x.start - y.start })
	for i := 0; i < len(hits); {
		start, end := hits[i].start, hits[i].end
		for i++; i < len(hits) && hits[i].start <= end; i++ {
			end = max(end, hits[i].end)
		}
		if start < cut && end >= cut {
			return start
		}
		if start >= cut {
			break
		}
	}
	return cut
}
