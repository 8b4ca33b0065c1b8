"""Web plumbing, apart from the question's path: error responses, middleware, SSE framing, metrics, logs."""
