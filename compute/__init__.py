"""Lesson compute modules: per lesson a parameter grid, a pure compute() and its charts."""
