// Registers the coordination group's validators; one import per kind file.
import './lease';
