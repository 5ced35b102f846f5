print("spconnect-status: not built yet")
