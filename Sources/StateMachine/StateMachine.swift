/// Discrete states as static data containers.
enum StateMachineModule {}
