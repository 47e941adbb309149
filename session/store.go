package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// Memory verdicts.
const (
	Allowed = "allow"
	Denied  = "deny"
)

// State is what one session remembers.
type State struct {
	Session string `json:"session"`
	// Entries are "for this session" answers, keyed by exact command text.
	Entries []Entry `json:"entries"`
	// Denials are every denial of an escalation, for the circuit breaker.
	Denials []Entry `json:"denials"`
}

// Entry is a remembered command. A "for this session" answer holds for the
// command text in the directory it was given in: the same words can reach
// other files elsewhere.
type Entry struct {
	Command string    `json:"command"`
	Cwd     string    `json:"cwd,omitempty"`
	Verdict string    `json:"verdict,omitempty"`
	Time    time.Time `json:"time"`
	// Links are the words of an allowed command that reached their files
	// through symbolic links when the person answered, each with the file
	// it reached: the answer holds only while the command's words lead
	// nowhere else.
	Links []string `json:"links,omitempty"`
}

// Store keeps session state in Dir, one file per session, each written
// atomically under a lock so that concurrent agentgate processes lose
// nothing.
type Store struct {
	Dir string
	// TTL is how long a "for this session" answer lasts.
	TTL time.Duration
	// Window is how far back denials count for the breaker.
	Window time.Duration
}

func (s Store) path(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:16])+".json")
}

// Load reads the session's state. A missing file is an empty state; an
// unreadable or corrupt one is an empty state and an error to warn about:
// never a crash, and never an allow.
func (s Store) Load(id string) (State, error) {
	st := State{Session: id}
	data, err := fsutil.ReadRegular(s.path(id), fsutil.MaxStateSize)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("session state %s is unreadable (%v); nothing is remembered", s.path(id), err)
	}
	var got State
	if err := json.Unmarshal(data, &got); err != nil || got.Session != id {
		if err == nil {
			err = fmt.Errorf("it belongs to session %q", got.Session)
		}
		return st, fmt.Errorf("session state %s is corrupt (%v); nothing is remembered", s.path(id), err)
	}
	return got, nil
}

// Remembered returns the "for this session" verdict for the exact command
// text in the directory cwd, if one is still fresh. An allow holds only
// while links, called once it is needed, lists no link the person's
// answer did not ([Entry.Links]): a word swapped for a link since leads
// to a file nobody approved. links may be nil: no word goes through one.
func (s Store) Remembered(st State, command, cwd string, now time.Time, links func() []string) (string, bool) {
	var cur []string
	looked := false
	for i := len(st.Entries) - 1; i >= 0; i-- {
		e := st.Entries[i]
		if e.Command != command || e.Cwd != cwd || now.Sub(e.Time) >= s.TTL || e.Time.After(now) {
			continue
		}
		if e.Verdict == Allowed && links != nil {
			if !looked {
				cur, looked = links(), true
			}
			if !subset(cur, e.Links) {
				continue
			}
		}
		return e.Verdict, e.Verdict == Allowed || e.Verdict == Denied
	}
	return "", false
}

// subset reports whether every entry of a is in b.
func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// RecentDenials counts the denials of the exact command within Window.
func (s Store) RecentDenials(st State, command string, now time.Time) int {
	n := 0
	for _, e := range st.Denials {
		if e.Command == command && now.Sub(e.Time) < s.Window && !e.Time.After(now) {
			n++
		}
	}
	return n
}

// Update changes the session's state under its lock: read, fn, write
// atomically. A corrupt file is replaced.
func (s Store) Update(id string, now time.Time, fn func(*State)) error {
	path := s.path(id)
	return fsutil.Locked(path+".lock", func() error {
		st, _ := s.Load(id)
		fn(&st)
		st.prune(now, s.TTL, s.Window)
		data, err := json.MarshalIndent(st, "", " ")
		if err != nil {
			return err
		}
		return fsutil.WriteAtomic(path, data)
	})
}

// Remember records a "for this session" answer for command in cwd; links
// are the words that reached their files through links then
// ([Entry.Links]).
func (s Store) Remember(id, command, cwd, verdict string, now time.Time, links ...string) error {
	return s.Update(id, now, func(st *State) {
		st.Entries = append(st.Entries, Entry{Command: command, Cwd: cwd, Verdict: verdict, Time: now, Links: links})
	})
}

// RecordDenial counts a denial for the breaker.
func (s Store) RecordDenial(id, command string, now time.Time) error {
	return s.Update(id, now, func(st *State) {
		st.Denials = append(st.Denials, Entry{Command: command, Time: now})
	})
}

// prune drops what has expired, so a long session's file stays small.
func (st *State) prune(now time.Time, ttl, window time.Duration) {
	keep := func(list []Entry, d time.Duration) []Entry {
		out := list[:0]
		for _, e := range list {
			if now.Sub(e.Time) < d {
				out = append(out, e)
			}
		}
		return out
	}
	st.Entries = keep(st.Entries, ttl)
	st.Denials = keep(st.Denials, max(window, ttl))
}

// Short is a short, stable handle for a session, for listing and
// revoking: the start of the hash its file is named by.
func (s Store) Short(id string) string {
	return filepath.Base(s.path(id))[:12]
}

// List reads every session's state, newest activity first is left to the
// caller. Files that cannot be read are returned as errors, not skipped
// silently.
func (s Store) List() ([]State, []error) {
	names, err := filepath.Glob(filepath.Join(s.Dir, "*.json"))
	if err != nil {
		return nil, []error{err}
	}
	var out []State
	var errs []error
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, fmt.Errorf("session state %s is unreadable: %v", name, err))
			continue
		}
		var st State
		if err := json.Unmarshal(data, &st); err != nil || s.path(st.Session) != name {
			if err == nil {
				err = errors.New("its name does not match its session")
			}
			errs = append(errs, fmt.Errorf("session state %s is corrupt: %v", name, err))
			continue
		}
		out = append(out, st)
	}
	return out, errs
}

// Find returns the session whose id or short handle is ref.
func (s Store) Find(ref string) (string, bool) {
	states, _ := s.List()
	for _, st := range states {
		if st.Session == ref || s.Short(st.Session) == ref {
			return st.Session, true
		}
	}
	return "", false
}

// Revoke forgets the session's "allow for this session" answers. Its
// "deny for this session" answers and its denials stay: revoking only
// narrows what runs without asking.
func (s Store) Revoke(id string, now time.Time) (int, error) {
	n := 0
	err := s.Update(id, now, func(st *State) {
		keep := st.Entries[:0]
		for _, e := range st.Entries {
			if e.Verdict == Allowed {
				n++
				continue
			}
			keep = append(keep, e)
		}
		st.Entries = keep
	})
	return n, err
}

// ResetBreaker forgets the session's denials, so that a command the
// breaker stopped asks again. This widens: callers confirm it first.
func (s Store) ResetBreaker(id string, now time.Time) (int, error) {
	n := 0
	err := s.Update(id, now, func(st *State) {
		n = len(st.Denials)
		st.Denials = nil
	})
	return n, err
}

// Tripped returns, for each command, how many times it was denied within
// Window, for those denied at least threshold times: the commands the
// breaker refuses without asking.
func (s Store) Tripped(st State, threshold int, now time.Time) map[string]int {
	out := map[string]int{}
	for _, e := range st.Denials {
		if n := s.RecentDenials(st, e.Command, now); n >= threshold {
			out[e.Command] = n
		}
	}
	return out
}
