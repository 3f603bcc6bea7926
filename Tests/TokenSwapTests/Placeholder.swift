// Placeholder so the test target builds; replaced by the first real tests.
