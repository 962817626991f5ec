package customprobe_test

import "net"

// listenOn accepts and closes connections on addr until stop is called.
func listenOn(addr string) (stop func(), err error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return func() { l.Close() }, nil
}
