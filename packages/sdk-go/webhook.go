package burnbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers of a webhook delivery.
const (
	// HeaderSignature256 is "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>".
	HeaderSignature256 = "X-Service-Signature-256"
	HeaderEvent        = "X-Service-Event"
	HeaderDeliveryID   = "X-Service-Delivery-ID"
	HeaderTimestamp    = "X-Service-Timestamp"
)

// DefaultWebhookTolerance is how far a delivery's signed send time may lie from now.
const DefaultWebhookTolerance = 5 * time.Minute

// WebhookDelivery is the body of a webhook delivery.
type WebhookDelivery struct {
	// ID is the delivery's id, the same on every attempt of it (X-Service-Delivery-ID): drop
	// one already handled.
	ID string `json:"id"`
	// Event is "email.received", "inbox.created" or "inbox.expired".
	Event string `json:"event"`
	// Timestamp is when the event happened.
	Timestamp time.Time `json:"timestamp"`
	// Data is the event's data; decode it with [WebhookDelivery.Decode].
	Data json.RawMessage `json:"data"`
}

// Decode unmarshals the delivery's data into v, e.g. an [EmailReceived].
func (d *WebhookDelivery) Decode(v any) error { return json.Unmarshal(d.Data, v) }

// EmailReceived is the data of an email.received delivery.
type EmailReceived struct {
	EmailID    string    `json:"email_id"`
	InboxID    string    `json:"inbox_id"`
	TeamID     string    `json:"team_id"`
	From       string    `json:"from"`
	To         string    `json:"to"`
	Subject    string    `json:"subject"`
	ReceivedAt time.Time `json:"received_at"`
}

// Why [VerifyWebhook] refused a delivery ([WebhookError.Reason]).
const (
	ReasonMissingSignature   = "missing_signature"
	ReasonMalformedSignature = "malformed_signature"
	ReasonStaleTimestamp     = "stale_timestamp"
	ReasonBadSignature       = "bad_signature"
	ReasonMalformedBody      = "malformed_body"
)

// WebhookError is a delivery that [VerifyWebhook] refused; answer it with a 4xx.
type WebhookError struct {
	// Reason is one of the Reason… constants.
	Reason  string
	message string
}

func (e *WebhookError) Error() string { return "burnbox: webhook " + e.Reason + ": " + e.message }

// WebhookVerifier verifies deliveries with a secret, a tolerance and a clock of its own; the
// zero Tolerance is [DefaultWebhookTolerance], a negative one turns the time check off, and a
// nil Now is [time.Now].
type WebhookVerifier struct {
	// Secret is the webhook's secret, its text as shown when the webhook was created.
	Secret    string
	Tolerance time.Duration
	Now       func() time.Time
}

// VerifyWebhook checks a delivery as the webhook dispatcher signs it and returns its body.
// Pass the body's exact bytes as received, never JSON re-encoded. The signature is
// X-Service-Signature-256, "t=<unix seconds>,v1=<hex>": v1 is the lowercase hex HMAC-SHA256,
// keyed with the secret, of t + "." + body, and t is when this attempt was sent; t must lie
// within [DefaultWebhookTolerance] of now, so a captured delivery replayed later is refused
// while every retry, signed afresh, passes. Of several v1 values one matching is enough; the
// comparison takes constant time. The error is a [*WebhookError].
func VerifyWebhook(secret string, header http.Header, body []byte) (*WebhookDelivery, error) {
	return WebhookVerifier{Secret: secret}.Verify(header, body)
}

// Verify is [VerifyWebhook] with v's secret, tolerance and clock.
func (v WebhookVerifier) Verify(header http.Header, body []byte) (*WebhookDelivery, error) {
	given := strings.TrimSpace(headerValue(header, HeaderSignature256))
	if given == "" {
		return nil, &WebhookError{ReasonMissingSignature, "no " + HeaderSignature256 + " header"}
	}
	t, signatures, ok := parseSignature256(given)
	if !ok {
		return nil, &WebhookError{ReasonMalformedSignature, HeaderSignature256 + " is not t=<unix seconds>,v1=<64 hex>"}
	}
	tolerance := v.Tolerance
	if tolerance == 0 {
		tolerance = DefaultWebhookTolerance
	}
	if tolerance > 0 {
		now := time.Now
		if v.Now != nil {
			now = v.Now
		}
		if d := now().Sub(time.Unix(t, 0)); d > tolerance || d < -tolerance {
			return nil, &WebhookError{ReasonStaleTimestamp, fmt.Sprintf("signed at %d, outside %v of now", t, tolerance)}
		}
	}
	mac := hmac.New(sha256.New, []byte(v.Secret))
	mac.Write([]byte(strconv.FormatInt(t, 10) + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	matched := false
	for _, s := range signatures {
		// every value is compared, each in constant time
		if hmac.Equal(s, want) {
			matched = true
		}
	}
	if !matched {
		return nil, &WebhookError{ReasonBadSignature, "no signature matches the body and its send time"}
	}
	var d WebhookDelivery
	if err := json.Unmarshal(body, &d); err != nil {
		return nil, &WebhookError{ReasonMalformedBody, "the body is not a delivery: " + err.Error()}
	}
	if d.ID == "" || d.Event == "" {
		return nil, &WebhookError{ReasonMalformedBody, "the body is not a delivery {id, event, timestamp, data}"}
	}
	return &d, nil
}

// headerValue is the header's first value, also from a map whose keys are not in canonical
// form (built by hand rather than by net/http).
func headerValue(h http.Header, name string) string {
	if v := h.Get(name); v != "" {
		return v
	}
	for k, vs := range h {
		if strings.EqualFold(k, name) && len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}

// parseSignature256 reads "t=…,v1=…[,v1=…]"; schemes other than v1 are skipped.
func parseSignature256(value string) (t int64, v1 [][]byte, ok bool) {
	seenT := false
	for _, part := range strings.Split(value, ",") {
		key, val, found := strings.Cut(part, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !found || key == "" {
			return 0, nil, false
		}
		switch key {
		case "t":
			if seenT || len(val) == 0 || len(val) > 12 || strings.Trim(val, "0123456789") != "" {
				return 0, nil, false
			}
			t, _ = strconv.ParseInt(val, 10, 64)
			seenT = true
		case "v1":
			if len(val) != 64 || strings.ToLower(val) != val {
				return 0, nil, false
			}
			b, err := hex.DecodeString(val)
			if err != nil {
				return 0, nil, false
			}
			v1 = append(v1, b)
		}
	}
	return t, v1, seenT && len(v1) > 0
}
