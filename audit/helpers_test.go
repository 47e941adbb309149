package audit_test

import (
	"errors"
	"net"

	"github.com/agentgate/agentgate/audit"
)

func listenUnixgram(path string) (*net.UnixConn, error) {
	return net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
}

func asSyslogError(err error, target **audit.SyslogError) bool { return errors.As(err, target) }
