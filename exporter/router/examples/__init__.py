"""Usage examples of the router client."""
