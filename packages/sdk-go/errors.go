package burnbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// The codes of the API's error envelope ([Error.Code]). The server may add others; compare with
// these rather than with the HTTP status where a code says more (a 409 is "conflict" or
// "session_limit").
const (
	CodeValidation      = "validation_error"
	CodeUnauthenticated = "unauthenticated"
	CodeForbidden       = "forbidden"
	CodeNotFound        = "not_found"
	CodeConflict        = "conflict"
	CodeRateLimited     = "rate_limited"
	CodeInternal        = "internal_error"
)

// Error is an answer other than 2xx, from the API's envelope {error, code}. Read it with
// [errors.As]. A 429 has Code "rate_limited" and RetryAfter set.
type Error struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the envelope's code: one of the Code… constants, or another the server sent.
	Code string
	// Message is the envelope's error text.
	Message string
	// Details lists the fields a validation error refers to, when the server named them.
	Details []ErrorDetail
	// ErrorID identifies a 500 in the server's logs.
	ErrorID string
	// RetryAfter is how long to wait before trying again (429 only).
	RetryAfter time.Duration
	// Body is the answer's body as received.
	Body []byte
}

// ErrorDetail is one entry of a validation error's details.
type ErrorDetail struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("burnbox: %d %s: %s", e.StatusCode, e.Code, e.Message)
}

// fallbackCodes name a status whose body carries no code (a proxy's page, a 429).
var fallbackCodes = map[int]string{
	400: CodeValidation,
	401: CodeUnauthenticated,
	403: CodeForbidden,
	404: CodeNotFound,
	409: CodeConflict,
	429: CodeRateLimited,
}

func errorFromResponse(res *http.Response, body []byte) *Error {
	var env struct {
		Error      string        `json:"error"`
		Code       string        `json:"code"`
		Details    []ErrorDetail `json:"details"`
		ErrorID    string        `json:"error_id"`
		RetryAfter *float64      `json:"retry_after"`
	}
	_ = json.Unmarshal(body, &env) // a body that is not the envelope keeps the fallbacks below
	e := &Error{StatusCode: res.StatusCode, Code: env.Code, Message: env.Error, Details: env.Details, ErrorID: env.ErrorID, Body: body}
	if e.Code == "" {
		if c, ok := fallbackCodes[res.StatusCode]; ok {
			e.Code = c
		} else if res.StatusCode >= 500 {
			e.Code = CodeInternal
		} else {
			e.Code = "http_" + strconv.Itoa(res.StatusCode)
		}
	}
	if e.Message == "" {
		e.Message = http.StatusText(res.StatusCode)
		if e.Message == "" {
			e.Message = "HTTP " + strconv.Itoa(res.StatusCode)
		}
	}
	if res.StatusCode == http.StatusTooManyRequests {
		if env.RetryAfter != nil && *env.RetryAfter > 0 {
			e.RetryAfter = time.Duration(*env.RetryAfter * float64(time.Second))
		} else if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 {
			e.RetryAfter = time.Duration(s) * time.Second
		}
	}
	return e
}

// WaitTimeoutError is what [Client.WaitForEmail] and the waits on it return when fewer emails
// than asked for matched before the wait's timeout. Result is the server's answer: what did
// match, and how many.
type WaitTimeoutError struct {
	Result *WaitResult
}

func (e *WaitTimeoutError) Error() string {
	return fmt.Sprintf("burnbox: timed out waiting for email: %d matched", e.Result.Matched)
}

// Timeout reports true, as the errors of package net do for a timeout.
func (e *WaitTimeoutError) Timeout() bool { return true }

// ErrNoCode and ErrNoLink are what the error of [Client.WaitForCode] and [Client.WaitForLink]
// wraps when the mail came but held no code, or no link of the kind asked for.
var (
	ErrNoCode = errors.New("the email holds no code")
	ErrNoLink = errors.New("the email holds no such link")
)

// NothingExtractedError is the mail that came but held no code (Unwrap gives [ErrNoCode]) or no
// link of the kind asked for ([ErrNoLink]).
type NothingExtractedError struct {
	Email *EmailSummary
	err   error
}

func (e *NothingExtractedError) Error() string {
	return fmt.Sprintf("burnbox: email %s (%q): %v", e.Email.ID, e.Email.Subject, e.err)
}

func (e *NothingExtractedError) Unwrap() error { return e.err }
