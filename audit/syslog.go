package audit

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Syslog forwards records to the local syslog daemon or journald, as RFC
// 5424 messages with structured data, so an organisation's log pipeline
// collects escalations from every machine.
type Syslog struct {
	// Socket is the datagram socket; /dev/log, then
	// /run/systemd/journal/syslog, when empty.
	Socket string
}

// syslogPRI is authpriv.notice: records name commands and directories,
// which may be sensitive.
const syslogPRI = 10*8 + 5

// maxSyslogMessage keeps a datagram within what every daemon accepts.
const maxSyslogMessage = 60 << 10

// Send writes one record.
func (s *Syslog) Send(rec Record, line []byte) error {
	sockets := []string{"/dev/log", "/run/systemd/journal/syslog"}
	if s.Socket != "" {
		sockets = []string{s.Socket}
	}
	msg := Format5424(rec, line)
	var last error
	for _, path := range sockets {
		c, err := net.DialTimeout("unixgram", path, time.Second)
		if err != nil {
			last = err
			continue
		}
		c.SetWriteDeadline(time.Now().Add(time.Second))
		_, err = c.Write(msg)
		c.Close()
		if err == nil {
			return nil
		}
		last = err
	}
	return last
}

// Format5424 renders a record as an RFC 5424 message: the outcome,
// decision, session, seq and id as structured data, the JSON record as the
// message.
func Format5424(rec Record, line []byte) []byte {
	host, _ := os.Hostname()
	if host == "" {
		host = "-"
	}
	ts := rec.Time
	if ts == "" {
		ts = "-"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<%d>1 %s %s agentgate %d %s [agentgate@32473", syslogPRI, ts, host, os.Getpid(), sdName(rec.Event))
	for _, kv := range [][2]string{
		{"outcome", rec.Outcome}, {"decision", rec.Decision.String()}, {"session", rec.Session},
		{"seq", strconv.FormatInt(rec.Seq, 10)}, {"id", rec.ID}, {"user", rec.User},
	} {
		fmt.Fprintf(&b, ` %s="%s"`, kv[0], sdEscape(kv[1]))
	}
	b.WriteString("] ")
	msg := line
	if len(msg) > maxSyslogMessage {
		msg = append(msg[:maxSyslogMessage:maxSyslogMessage], []byte("...(truncated)")...)
	}
	b.Write(msg)
	return []byte(b.String())
}

func sdName(event string) string {
	if event == "" {
		return "-"
	}
	return event
}

// sdEscape escapes a structured-data parameter value (RFC 5424 6.3.3).
func sdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, `]`, `\]`).Replace(s)
}
