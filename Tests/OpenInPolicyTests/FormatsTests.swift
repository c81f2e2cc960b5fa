// The format readers and writers are tested here as they land.
