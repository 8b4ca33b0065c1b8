"""The HTTP service: route a question, retrieve from the index, compose a cited answer, respond."""
