// Export — a layer tree over a time range → files or a stream of frames.
