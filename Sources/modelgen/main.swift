// Placeholder until the command-line front end lands (issue 2).
print("modelgen")
