import LimelightCommand
import LimelightImportCommand

ImportCommand.mainWithStatus()
