package main

import "net"

// loopback binds the embedded broker to 127.0.0.1 only.
func loopback(network, _ string) (net.Listener, error) {
	return net.Listen(network, "127.0.0.1:0")
}
