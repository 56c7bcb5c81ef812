import LimelightCLI
import LimelightImportCommand

ImportCommand.mainWithStatus()
