package profiles

import (
	"errors"
	"strings"

	"github.com/zalando/go-keyring"
)

// KeyringService is the keyring service the keys are filed under; the
// user is the profile name.
const KeyringService = "hookstudio"

// Keyring is what the profiles need from an OS keyring.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// OSKeyring is the platform keyring (Keychain, Credential Manager, the
// Secret Service over D-Bus).
type OSKeyring struct{}

func (OSKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (OSKeyring) Set(service, user, secret string) error   { return keyring.Set(service, user, secret) }
func (OSKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// ErrNoKeyring: the machine has no usable keyring (a headless Linux
// without a Secret Service, an unsupported platform).
var ErrNoKeyring = errors.New("no OS keyring available")

// KeySource says where a key came from.
type KeySource string

const (
	KeyFromKeyring KeySource = "keyring"
	KeyFromEnv     KeySource = "env"
	KeyNone        KeySource = "none" // local servers usually need none
)

// EnvVar is the fallback variable of a provider's key.
func EnvVar(p Provider) string {
	if p == Anthropic {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}

// keyringMissing tells "no keyring here" from "no key in it".
func keyringMissing(err error) bool {
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return false
	}
	if errors.Is(err, keyring.ErrUnsupportedPlatform) {
		return true
	}
	// The Secret Service over D-Bus fails in many ways on a headless
	// machine (no session bus, no org.freedesktop.secrets provider): any
	// other failure means the keyring cannot be used.
	return true
}

// describeKeyringErr names a keyring failure without its details, which
// never hold the key but may be long D-Bus messages.
func describeKeyringErr(err error) string {
	msg := err.Error()
	if errors.Is(err, keyring.ErrUnsupportedPlatform) {
		return "unsupported platform"
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}

// keyFor resolves a profile's key: the keyring, else the provider's
// environment variable, else none.
func keyFor(kr Keyring, getenv func(string) string, p Profile) (string, KeySource) {
	if kr != nil {
		// Not found, or no keyring at all: fall back to the environment.
		if key, err := kr.Get(KeyringService, p.Name); err == nil && key != "" {
			return key, KeyFromKeyring
		}
	}
	if getenv != nil {
		if key := getenv(EnvVar(p.Provider)); key != "" {
			return key, KeyFromEnv
		}
	}
	return "", KeyNone
}
