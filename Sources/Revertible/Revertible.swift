/// Revertible.
enum RevertibleModule {}
