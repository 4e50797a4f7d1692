-- The W3C traceparent of the consumer span that scheduled a delivery: every attempt, on any
-- replica and after restarts, continues the event's trace.
ALTER TABLE "deliveries" ADD COLUMN "trace_parent" TEXT;
