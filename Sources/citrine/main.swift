import QuartzCore
print("citrine: work in progress")
