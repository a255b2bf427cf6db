// The citrine executable: the commands are the CitrineCommands library.
import CitrineCommands

CitrineCommandLine.main()
