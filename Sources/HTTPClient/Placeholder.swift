// Placeholder so the target builds; replaced by the first real source of HTTPClient.
